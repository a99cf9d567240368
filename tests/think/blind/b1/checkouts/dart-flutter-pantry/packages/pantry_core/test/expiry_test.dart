import 'package:flutter_test/flutter_test.dart';
import 'package:pantry_core/pantry_core.dart';

void main() {
  const calc = ExpiryCalculator();

  test('warning comes before the item expires', () {
    final warn = calc.warnAt(DateTime(2024, 3, 1, 10), 7);
    expect(warn.isBefore(DateTime(2024, 3, 8, 10)), isTrue);
  });

  test('zero-day shelf life warns immediately', () {
    final added = DateTime(2024, 3, 1, 10);
    expect(calc.warnAt(added, 0).isAfter(added), isFalse);
  });
}
