SELECT cidr_contains('10.0.0.0/8', '10.1.2.3');
