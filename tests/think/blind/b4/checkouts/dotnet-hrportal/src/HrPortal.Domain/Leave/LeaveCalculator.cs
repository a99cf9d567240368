namespace HrPortal.Domain.Leave;

public sealed class LeaveCalculator
{
    private readonly IPublicHolidayCalendar _holidays;

    public LeaveCalculator(IPublicHolidayCalendar holidays) => _holidays = holidays;

    public int DaysCharged(DateOnly from, DateOnly to, string region)
    {
        if (to < from) throw new ArgumentException("End date is before start date.", nameof(to));

        var days = 0;
        for (var d = from; d <= to; d = d.AddDays(1))
        {
            if (_holidays.IsHoliday(d, region)) continue;
            days++;
        }
        return days;
    }
}
