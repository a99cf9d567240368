package org.acme.inventory;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class StockResourceTest {

    @Test
    void getStockItem() {
        given().when().get("/stock/1")
            .then().statusCode(200)
            .body("sku", is("SKU-0001"))
            .body("quantity", is(12));
    }
}
