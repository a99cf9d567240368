package shop;
