import 'package:flutter_test/flutter_test.dart';
import 'package:mocktail/mocktail.dart';
import 'package:shopfront/models/product.dart';
import 'package:shopfront/services/cart_repository.dart';
import 'package:shopfront/services/cart_service.dart';

class _MockRepo extends Mock implements CartRepository {}

void main() {
  late CartService cart;
  final boots = Product(sku: 'BT-41', name: 'Trail boots', price: Money.fromInt(12900, code: 'EUR'), currency: 'EUR');

  setUp(() => cart = CartService(_MockRepo()));

  test('adding the same sku twice merges quantities', () {
    cart.addItem(boots, 1);
    cart.addItem(boots, 2);
    expect(cart.lines.single.qty, 3);
  });

  test('total sums unit price times qty', () {
    cart.addItem(boots, 2);
    expect(cart.total, Money.fromInt(25800, code: 'EUR'));
  });
}
