package org.acme.orders;

import java.math.BigDecimal;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

@ApplicationScoped
public class OrderService {

    @Transactional
    public Order place(OrderRequest req) {
        Order order = Order.from(req);
        order.total = req.lines().stream()
            .map(l -> l.unitPrice().multiply(BigDecimal.valueOf(l.quantity())))
            .reduce(BigDecimal.ZERO, BigDecimal::add);
        order.persist();
        return order;
    }
}
