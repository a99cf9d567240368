#include <Rcpp.h>
using namespace Rcpp;

// Day of week, Monday = 1 ... Sunday = 7, from days since epoch
inline int iso_wday(int days) {
  int w = (days + 3) % 7;
  if (w < 0) w += 7;
  return w + 1;
}

// [[Rcpp::export]]
IntegerVector iso_wday_cpp(IntegerVector days) {
  int n = days.size();
  IntegerVector out(n);
  for (int i = 0; i < n; ++i) {
    out[i] = days[i] == NA_INTEGER ? NA_INTEGER : iso_wday(days[i]);
  }
  return out;
}
