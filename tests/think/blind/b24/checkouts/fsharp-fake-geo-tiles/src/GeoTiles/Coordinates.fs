namespace GeoTiles

[<Struct>]
type LatLon = { Lat: float; Lon: float }

module LatLon =
    let create lat lon =
        if lat < -90.0 || lat > 90.0 then invalidArg (nameof lat) "latitude out of range"
        { Lat = lat; Lon = ((lon + 180.0) % 360.0 + 360.0) % 360.0 - 180.0 }
