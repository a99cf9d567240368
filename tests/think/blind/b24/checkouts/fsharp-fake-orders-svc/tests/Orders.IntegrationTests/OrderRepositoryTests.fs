module Orders.IntegrationTests.OrderRepositoryTests

open Xunit
open Orders
open Orders.IntegrationTests.Fixtures

[<Fact>]
let ``inserts and reads back an order`` () =
    task {
        let! _ = OrderRepository.insert connString sampleOrder
        let! found = OrderRepository.getById connString sampleOrder.Id
        Assert.Equal(sampleOrder, List.exactlyOne found)
    }
