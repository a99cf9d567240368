## -*- texinfo -*-
## @deftypefn {} {@var{y} =} movmedian_nan (@var{x}, @var{k})
## Moving median of @var{x} over windows of length @var{k}; windows that
## contain NaN produce NaN.
## @end deftypefn
function y = movmedian_nan (x, k)
  if (nargin != 2)
    print_usage ();
  endif
  n = numel (x);
  y = NaN (size (x));
  h = floor (k / 2);
  for i = 1:n
    lo = max (1, i - h);
    hi = min (n, i + h);
    y(i) = median (x(lo:hi));
  endfor
endfunction
