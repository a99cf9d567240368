#include <tcl.h>
#include <sqlite3.h>
#include "sqlx.h"

static int SqlxOpenObjCmd(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);
static int SqlxQueryObjCmd(ClientData cd, Tcl_Interp *interp, int objc, Tcl_Obj *const objv[]);

int Tclsqlx_Init(Tcl_Interp *interp) {
    if (Tcl_InitStubs(interp, "8.6", 0) == NULL) return TCL_ERROR;
    Tcl_CreateObjCommand(interp, "sqlx::open", SqlxOpenObjCmd, NULL, NULL);
    Tcl_CreateObjCommand(interp, "sqlx::query", SqlxQueryObjCmd, NULL, NULL);
    return Tcl_PkgProvide(interp, "tclsqlx", "0.7");
}
