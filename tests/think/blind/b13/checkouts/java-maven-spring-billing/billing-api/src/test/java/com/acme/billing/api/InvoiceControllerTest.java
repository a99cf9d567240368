package com.acme.billing.api;

import com.acme.billing.domain.InvoiceService;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.WebMvcTest;
import org.springframework.boot.test.mock.mockito.MockBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.Optional;

import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(InvoiceController.class)
class InvoiceControllerTest {

    @Autowired MockMvc mvc;
    @MockBean InvoiceService invoices;

    @Test
    void returnsNotFoundForUnknownInvoice() throws Exception {
        given(invoices.findById(999L)).willReturn(Optional.empty());
        mvc.perform(get("/api/invoices/999")).andExpect(status().isNotFound());
    }
}
