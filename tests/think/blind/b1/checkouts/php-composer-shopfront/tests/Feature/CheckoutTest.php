<?php

it('shows the basket total on the checkout page', function () {
    $this->get('/checkout')->assertOk()->assertSee('Total');
});
