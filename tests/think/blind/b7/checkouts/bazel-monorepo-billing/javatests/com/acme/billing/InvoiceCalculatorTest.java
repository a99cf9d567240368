package com.acme.billing;

import static com.google.common.truth.Truth.assertThat;

import java.math.BigDecimal;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.JUnit4;

@RunWith(JUnit4.class)
public class InvoiceCalculatorTest {
  @Test
  public void totalAddsTaxPerLine() {
    InvoiceCalculator calc = new InvoiceCalculator(TaxTable.of("DE", new BigDecimal("0.19")));
    Invoice inv = Invoice.builder().country("DE").addLine("widget", 2, new BigDecimal("10.00")).build();
    assertThat(calc.total(inv)).isEqualTo(new BigDecimal("23.80"));
  }
}
