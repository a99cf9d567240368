from shop.cart import total
