package com.acme.shipping.mapping;

import com.acme.shipping.api.ShipmentDto;
import com.acme.shipping.domain.ShipmentEntity;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShipmentMapperTest {

  private final ShipmentMapper mapper = new ShipmentMapper();

  @Test
  void mapsWeightAndTracking() {
    ShipmentEntity e = new ShipmentEntity();
    e.setTrackingNumber("1Z999AA10123456784");
    e.setWeightGrams(1250);
    ShipmentDto dto = mapper.toDto(e);
    assertThat(dto.getTrackingNumber()).isEqualTo("1Z999AA10123456784");
    assertThat(dto.getWeightGrams()).isEqualTo(1250);
  }
}
