import 'package:flutter_test/flutter_test.dart';
import 'package:tripcost/utils/date_utils.dart';

void main() {
  group('tripDayLabel', () {
    test('first day is Day 1', () {
      expect(tripDayLabel(DateTime(2024, 7, 1, 9), DateTime(2024, 7, 1, 22)), 'Day 1');
    });

    test('ignores time of day across midnight', () {
      expect(tripDayLabel(DateTime(2024, 7, 1, 23), DateTime(2024, 7, 2, 1)), 'Day 2');
    });
  });
}
