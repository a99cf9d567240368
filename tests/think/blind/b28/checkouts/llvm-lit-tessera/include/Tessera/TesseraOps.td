#ifndef TESSERA_OPS
#define TESSERA_OPS

include "Tessera/TesseraDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tessera_ScaleOp : Tessera_Op<"scale", [Pure, SameOperandsAndResultType]> {
  let summary = "multiply every element by a constant factor";
  let arguments = (ins AnyRankedTensor:$input, F64Attr:$factor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `by` $factor attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Tessera_ReshapeTileOp : Tessera_Op<"reshape_tile", [Pure]> {
  let summary = "reshape a tensor into tiles of the given sizes";
  let arguments = (ins AnyRankedTensor:$input, DenseI64ArrayAttr:$tile_sizes);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input `tiles` $tile_sizes attr-dict `:` type($input) `->` type($result)";
}

#endif // TESSERA_OPS
