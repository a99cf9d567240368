#include <assert.h>
#include <stdio.h>
#include "thumbkit.h"

int main(void) {
  tk_image src = tk_image_alloc(400, 300);
  tk_image dst = tk_resize_fit(&src, 128);
  assert(dst.width == 128 && dst.height == 96);
  puts("test_resize: ok");
  return 0;
}
