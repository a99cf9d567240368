package org.acme.notify;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

@QuarkusTest
class TemplateResolverTest {

    @Inject
    TemplateResolver resolver;

    @Test
    void resolvesWelcomeTemplate() {
        assertNotNull(resolver.resolve("welcome"));
    }
}
