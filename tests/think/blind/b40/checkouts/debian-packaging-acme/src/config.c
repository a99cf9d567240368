#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/usr/local/etc"
#endif

const char *acme_config_path(void)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/acme/acme.conf", SYSCONFDIR);
    return buf;
}
