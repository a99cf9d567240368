name(units_conv).
version('0.2.1').
title('Unit conversion for physical quantities').
author('Dana Whitfield', 'dana@example.org').
home('https://github.com/dwhitfield/units_conv').
