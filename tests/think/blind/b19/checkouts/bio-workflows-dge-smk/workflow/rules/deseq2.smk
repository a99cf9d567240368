rule deseq2_init:
    input:
        counts="results/counts/all.tsv",
        samples=config["samples"],
    output:
        "results/deseq2/dds.rds",
    log:
        "logs/deseq2/init.log",
    conda:
        "../envs/deseq2.yaml"
    threads: 4
    script:
        "../scripts/deseq2_init.R"


rule deseq2_contrast:
    input:
        "results/deseq2/dds.rds",
    output:
        table="results/deseq2/{contrast}.diffexp.tsv",
    params:
        contrast=lambda wc: config["contrasts"][wc.contrast],
    log:
        "logs/deseq2/{contrast}.diffexp.log",
    conda:
        "../envs/deseq2.yaml"
    script:
        "../scripts/deseq2.R"
