package org.acme.inventory;

import io.quarkus.hibernate.orm.panache.PanacheEntity;
import jakarta.persistence.Entity;

@Entity
public class StockItem extends PanacheEntity {
    public String sku;
    public int quantity;
    public int reorderLevel;
}
