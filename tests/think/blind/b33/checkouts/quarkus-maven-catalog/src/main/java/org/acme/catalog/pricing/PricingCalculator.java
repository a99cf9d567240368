package org.acme.catalog.pricing;

import java.math.BigDecimal;
import java.math.RoundingMode;
import jakarta.enterprise.context.ApplicationScoped;

@ApplicationScoped
public class PricingCalculator {

    public BigDecimal net(BigDecimal gross, BigDecimal vatRate) {
        return gross.divide(BigDecimal.ONE.add(vatRate), RoundingMode.HALF_UP);
    }

    public BigDecimal gross(BigDecimal net, BigDecimal vatRate) {
        return net.multiply(BigDecimal.ONE.add(vatRate)).setScale(2, RoundingMode.HALF_UP);
    }
}
