using Microsoft.Azure.Functions.Worker;
using Microsoft.Extensions.Logging;

namespace InventorySync;

public class SyncInventory(ILogger<SyncInventory> logger)
{
    [Function(nameof(SyncInventory))]
    public async Task Run([BlobTrigger("inventory/{name}", Connection = "InventoryStorage")] Stream blob, string name)
    {
        using var reader = new StreamReader(blob);
        var csv = await reader.ReadToEndAsync();
        logger.LogInformation("Blob {Name}: {Bytes} bytes", name, csv.Length);
    }
}
