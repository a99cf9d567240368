using System.Globalization;

namespace TrailLog.Converters;

/// <summary>Formats a distance in metres as "850 m" or "3.4 km".</summary>
public class DistanceConverter : IValueConverter
{
    public object? Convert(object? value, Type targetType, object? parameter, CultureInfo culture)
    {
        if (value is not double metres) return string.Empty;
        return metres < 1000
            ? $"{metres:0} m"
            : string.Format(culture, "{0:0.0} km", metres / 1000);
    }

    public object? ConvertBack(object? value, Type targetType, object? parameter, CultureInfo culture)
        => throw new NotSupportedException();
}
