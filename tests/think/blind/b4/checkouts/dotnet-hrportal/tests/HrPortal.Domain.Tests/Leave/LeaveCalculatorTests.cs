using HrPortal.Domain.Leave;
using Xunit;

namespace HrPortal.Domain.Tests.Leave;

public class LeaveCalculatorTests
{
    private sealed class NoHolidays : IPublicHolidayCalendar
    {
        public bool IsHoliday(DateOnly date, string region) => false;
    }

    [Fact]
    public void DaysCharged_SingleDay_IsOne()
    {
        var sut = new LeaveCalculator(new NoHolidays());
        Assert.Equal(1, sut.DaysCharged(new DateOnly(2026, 3, 10), new DateOnly(2026, 3, 10), "UK-ENG"));
    }

    [Fact]
    public void DaysCharged_Throws_WhenEndBeforeStart()
    {
        var sut = new LeaveCalculator(new NoHolidays());
        Assert.Throws<ArgumentException>(() => sut.DaysCharged(new DateOnly(2026, 3, 10), new DateOnly(2026, 3, 9), "UK-ENG"));
    }
}
