#ifndef PG_BITSET_H
#define PG_BITSET_H
#include "postgres.h"

typedef struct
{
	int32		vl_len_;
	int32		nbits;
	uint8		data[FLEXIBLE_ARRAY_MEMBER];
} Bitset;

#define DatumGetBitsetP(X) ((Bitset *) PG_DETOAST_DATUM(X))
#define PG_GETARG_BITSET_P(n) DatumGetBitsetP(PG_GETARG_DATUM(n))
#define PG_RETURN_BITSET_P(x) PG_RETURN_POINTER(x)

extern Bitset *bitset_alloc(int nbits);

#endif
