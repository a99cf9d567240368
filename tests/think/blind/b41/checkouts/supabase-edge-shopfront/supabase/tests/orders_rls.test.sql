begin;
select plan(3);

select has_table('public', 'orders', 'table public.orders exists');

insert into auth.users (id, email) values ('11111111-1111-1111-1111-111111111111', 'owner@example.com');
insert into public.orders (user_id, total_cents) values ('11111111-1111-1111-1111-111111111111', 4200);

set local role authenticated;
set local request.jwt.claims to '{"sub":"11111111-1111-1111-1111-111111111111","role":"authenticated"}';
select is((select count(*)::int from public.orders), 1, 'policy lets owner read own rows');

set local request.jwt.claims to '{"sub":"22222222-2222-2222-2222-222222222222","role":"authenticated"}';
select is((select count(*)::int from public.orders), 0, 'other users cannot read the row');

select * from finish();
rollback;
