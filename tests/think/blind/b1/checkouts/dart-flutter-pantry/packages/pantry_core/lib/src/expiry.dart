class ExpiryCalculator {
  const ExpiryCalculator({this.warnDaysBefore = 2});

  final int warnDaysBefore;

  DateTime warnAt(DateTime addedAt, int shelfLifeDays) {
    final expires = addedAt.add(Duration(days: shelfLifeDays));
    final day = DateTime(expires.year, expires.month, expires.day + 1);
    return day.subtract(Duration(days: warnDaysBefore));
  }
}
