#include "unity.h"

void app_main(void)
{
    unity_run_menu();
}
