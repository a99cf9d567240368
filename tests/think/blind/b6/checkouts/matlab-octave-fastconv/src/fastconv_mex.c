#include "mex.h"
#include <string.h>

/* y = fastconv_mex(x, k): full linear convolution of two real row vectors. */
void mexFunction(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[])
{
    if (nrhs != 2)
        mexErrMsgIdAndTxt("fastconv:nargin", "fastconv_mex: expected 2 inputs");
    const double *x = mxGetPr(prhs[0]);
    const double *k = mxGetPr(prhs[1]);
    mwSize nx = mxGetNumberOfElements(prhs[0]);
    mwSize nk = mxGetNumberOfElements(prhs[1]);
    mwSize ny = nx + nk - 1;
    plhs[0] = mxCreateDoubleMatrix(1, ny, mxREAL);
    double *y = mxGetPr(plhs[0]);
    memset(y, 0, ny * sizeof(double));
    for (mwSize i = 0; i < nx; i++)
        for (mwSize j = 0; j < nk; j++)
            y[i + j] += x[i] * k[j];
}
