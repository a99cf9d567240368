use Mojo::Base -strict;
use Test::More;
use Test::Mojo;

plan skip_all => 'set TEST_ONLINE to a Postgres URL' unless $ENV{TEST_ONLINE};

my $t = Test::Mojo->new('TicketHub', {pg => $ENV{TEST_ONLINE}});
$t->app->pg->migrations->name('tickethub')->from_file($t->app->home->child('migrations.sql'))->migrate;

$t->post_ok('/api/tickets' => json => {title => 'Printer on fire', status => 'open'})->status_is(201);
$t->get_ok('/api/tickets')->status_is(200)->json_is('/0/title' => 'Printer on fire');
$t->get_ok('/api/tickets?status=closed')->status_is(200)->json_is([]);
$t->get_ok('/api/tickets/999999')->status_is(404);

done_testing;
