#pragma once
#include <stdint.h>

typedef struct {
    uint32_t last_edge_ms;
    uint16_t rpm;
} cadence_t;

void cadence_init(cadence_t *c);
void cadence_on_edge(cadence_t *c, uint32_t now_ms);
uint16_t cadence_rpm(const cadence_t *c, uint32_t now_ms);
