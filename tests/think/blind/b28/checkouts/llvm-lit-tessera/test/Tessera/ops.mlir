// RUN: tessera-opt %s | tessera-opt | FileCheck %s

// CHECK-LABEL: func.func @roundtrip
func.func @roundtrip(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: tessera.scale %{{.*}} by 3.000000e+00 : tensor<4x8xf32>
  %0 = tessera.scale %arg0 by 3.0 : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
