namespace TrailLog.Services;

public record TrackPoint(double Lat, double Lon, double AccuracyMetres, DateTimeOffset At);

public static class TrackSmoother
{
    /// Drops fixes whose reported accuracy is worse than the threshold.
    public static IReadOnlyList<TrackPoint> DropInaccurate(IEnumerable<TrackPoint> points, double maxAccuracyMetres = 25)
        => points.Where(p => p.AccuracyMetres <= maxAccuracyMetres).ToList();
}
