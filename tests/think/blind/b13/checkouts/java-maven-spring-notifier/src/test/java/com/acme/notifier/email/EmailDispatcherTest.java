package com.acme.notifier.email;

import org.junit.jupiter.api.Test;
import org.springframework.mail.javamail.JavaMailSender;

import static org.mockito.Mockito.*;

class EmailDispatcherTest {

    @Test
    void sendsOnce() {
        JavaMailSender sender = mock(JavaMailSender.class);
        new EmailDispatcher(sender).dispatch(new OutgoingEmail("a@example.com", "Hi", "body"));
        verify(sender, times(1)).send(any(org.springframework.mail.SimpleMailMessage.class));
    }
}
