package org.acme.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.TestTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

@QuarkusTest
class OrderServiceTest {

    @Inject
    OrderService service;

    @Test
    @TestTransaction
    void totalIsSumOfLines() {
        OrderRequest req = new OrderRequest(42L, List.of(
            new OrderLine("SKU-1", 2, new BigDecimal("19.90")),
            new OrderLine("SKU-2", 1, new BigDecimal("5.00"))));
        Order order = service.place(req);
        assertEquals(new BigDecimal("44.80"), order.total);
    }

    @Test
    @TestTransaction
    void largeOrderTotal() {
        OrderRequest req = new OrderRequest(7L, List.of(new OrderLine("SKU-9", 6, new BigDecimal("100.00"))));
        assertEquals(new BigDecimal("600.00"), service.place(req).total);
    }
}
