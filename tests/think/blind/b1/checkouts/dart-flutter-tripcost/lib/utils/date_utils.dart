String tripDayLabel(DateTime start, DateTime day) {
  final n = DateTime(day.year, day.month, day.day)
          .difference(DateTime(start.year, start.month, start.day))
          .inDays +
      1;
  return 'Day $n';
}
