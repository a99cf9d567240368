import 'package:flutter/material.dart';
import 'package:provider/provider.dart';

import '../models/product.dart';
import '../services/cart_service.dart';

class QuickAddButton extends StatelessWidget {
  const QuickAddButton({super.key, required this.product});

  final Product product;

  @override
  Widget build(BuildContext context) {
    return IconButton(
      icon: const Icon(Icons.add_shopping_cart),
      tooltip: 'Add to cart',
      onPressed: () => context.read<CartService>().addItem(product, 1),
    );
  }
}
