import 'package:flutter_test/flutter_test.dart';
import 'package:tripcost/utils/split_calculator.dart';

void main() {
  test('splits evenly and gives the remainder cent to the payer', () {
    final shares = splitEvenly(1000, ['ana', 'ben', 'cy'], payer: 'ana');
    expect(shares, {'ana': 334, 'ben': 333, 'cy': 333});
  });
}
