#ifndef SQLX_H
#define SQLX_H
#include <sqlite3.h>
int sqlx_bind_params(sqlite3_stmt *st, Tcl_Interp *interp, Tcl_Obj *list);
#endif
