import 'package:flutter/material.dart';
import 'package:flutter_test/flutter_test.dart';
import 'package:tripcost/models/expense.dart';
import 'package:tripcost/widgets/expense_tile.dart';

void main() {
  testWidgets('shows the expense title', (tester) async {
    await tester.pumpWidget(MaterialApp(
      home: Material(child: ExpenseTile(expense: Expense(title: 'Ferry', amount: 4200, currency: 'EUR', payer: 'ana'))),
    ));
    expect(find.text('Ferry'), findsOneWidget);
  });
}
