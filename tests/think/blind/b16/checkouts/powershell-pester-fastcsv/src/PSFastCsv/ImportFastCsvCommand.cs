using System.IO;
using System.Management.Automation;

namespace PSFastCsv;

[Cmdlet(VerbsData.Import, "FastCsv")]
[OutputType(typeof(PSObject))]
public sealed class ImportFastCsvCommand : PSCmdlet
{
    [Parameter(Mandatory = true, Position = 0)]
    public string Path { get; set; } = "";

    [Parameter]
    public char Delimiter { get; set; } = ',';

    protected override void ProcessRecord()
    {
        var full = GetUnresolvedProviderPathFromPSPath(Path);
        using var reader = new StreamReader(full);
        var header = reader.ReadLine()?.Split(Delimiter) ?? System.Array.Empty<string>();
        string? line;
        while ((line = reader.ReadLine()) != null)
        {
            var fields = line.Split(Delimiter);
            var obj = new PSObject();
            for (var i = 0; i < header.Length; i++)
                obj.Properties.Add(new PSNoteProperty(header[i], i < fields.Length ? fields[i] : null));
            WriteObject(obj);
        }
    }
}
