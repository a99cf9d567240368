create table public.orders (
  id bigint generated always as identity primary key,
  user_id uuid not null references auth.users(id),
  status text not null default 'pending',
  total_cents int not null default 0,
  created_at timestamptz not null default now()
);
alter table public.orders enable row level security;
create policy "owner reads own orders" on public.orders for select to authenticated using (auth.uid() = user_id);
