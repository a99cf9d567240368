#include <zephyr/kernel.h>
#include <motorctl/pid.h>

extern void motor_task_start(void);

int main(void)
{
	motor_task_start();
	return 0;
}
