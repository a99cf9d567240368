package org.acme.customer;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.is;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

@QuarkusTest
class CustomerResourceTest {

    @Test
    void getCustomer() {
        given().when().get("/customers/1").then().statusCode(200).body("name", is("Ada Lovelace"));
    }

    @Test
    void unknownCustomerIs404() {
        given().when().get("/customers/999").then().statusCode(404);
    }

    @Test
    void patchEmail() {
        given().contentType(ContentType.JSON).body("{\"email\":\"new@acme.io\"}")
            .when().patch("/customers/1/email")
            .then().statusCode(200).body("email", is("new@acme.io"));

        given().contentType(ContentType.JSON).body("{\"email\":\"not-an-email\"}")
            .when().patch("/customers/1/email")
            .then().statusCode(400);
    }
}
