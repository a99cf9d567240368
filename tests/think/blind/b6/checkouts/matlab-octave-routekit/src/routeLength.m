function L = routeLength(lat, lon)
%ROUTELENGTH Great-circle length of a polyline in metres.
arguments
    lat (:,1) double
    lon (:,1) double
end
R = 6371008.8;
phi = deg2rad(lat); lam = deg2rad(lon);
dphi = diff(phi); dlam = diff(lam);
a = sin(dphi/2).^2 + cos(phi(1:end-1)).*cos(phi(2:end)).*sin(dlam/2).^2;
L = sum(2*R*asin(sqrt(a)));
end
