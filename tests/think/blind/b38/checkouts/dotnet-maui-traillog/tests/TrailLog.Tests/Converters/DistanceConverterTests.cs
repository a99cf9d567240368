using System.Globalization;
using TrailLog.Converters;
using Xunit;

namespace TrailLog.Tests.Converters;

public class DistanceConverterTests
{
    private readonly DistanceConverter _sut = new();

    [Theory]
    [InlineData(850.0, "850 m")]
    [InlineData(3420.0, "3.4 km")]
    public void Convert_FormatsMetresAndKilometres(double metres, string expected)
    {
        var text = _sut.Convert(metres, typeof(string), null, CultureInfo.InvariantCulture);
        Assert.Equal(expected, text);
    }
}
