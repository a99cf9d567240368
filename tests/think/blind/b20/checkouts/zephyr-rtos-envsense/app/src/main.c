#include <zephyr/kernel.h>
#include <zephyr/drivers/sensor.h>

static const struct device *const sht = DEVICE_DT_GET_ONE(sensirion_sht4x_ext);

int main(void)
{
	struct sensor_value t;

	while (1) {
		if (sensor_sample_fetch(sht) == 0) {
			sensor_channel_get(sht, SENSOR_CHAN_AMBIENT_TEMP, &t);
			printk("T=%d.%06d\n", t.val1, t.val2);
		}
		k_sleep(K_SECONDS(5));
	}
	return 0;
}
