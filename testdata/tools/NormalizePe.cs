// Makes Mono ilasm output reproducible: ilasm writes the current time into the COFF header and a
// random module MVID. This overwrites, in place, the COFF TimeDateStamp with 0 and the MVID with
// the first 16 bytes of the SHA-256 of the file (computed with both fields zeroed), so the result
// depends only on the assembled content. Used by testdata/build.sh.
//
//   dotnet NormalizePe.dll FILE...
using System;
using System.IO;
using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using System.Security.Cryptography;

static class NormalizePe
{
    static int Main(string[] args)
    {
        foreach (string path in args)
        {
            byte[] image = File.ReadAllBytes(path);
            int timestampOffset, mvidOffset;
            using (var pe = new PEReader(new MemoryStream(image)))
            {
                PEHeaders h = pe.PEHeaders;
                timestampOffset = h.CoffHeaderStartOffset + 4; // Machine(2) NumberOfSections(2) TimeDateStamp(4)
                MetadataReader md = pe.GetMetadataReader();
                GuidHandle mvid = md.GetModuleDefinition().Mvid;
                int index = MetadataTokens.GetHeapOffset(mvid); // 1-based index into the #GUID heap
                mvidOffset = h.MetadataStartOffset + md.GetHeapMetadataOffset(HeapIndex.Guid) + (index - 1) * 16;
            }
            Array.Clear(image, timestampOffset, 4);
            Array.Clear(image, mvidOffset, 16);
            byte[] hash = SHA256.HashData(image);
            Array.Copy(hash, 0, image, mvidOffset, 16);
            File.WriteAllBytes(path, image);
        }
        return 0;
    }
}
