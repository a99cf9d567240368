rule featurecounts:
    input:
        bam="results/star/{sample}/Aligned.sortedByCoord.out.bam",
        gtf=config["ref"]["gtf"],
    output:
        "results/counts/{sample}.featureCounts.tsv",
    log:
        "logs/featurecounts/{sample}.log",
    threads: 4
    conda:
        "../envs/subread.yaml"
    shell:
        "featureCounts -T {threads} -p --countReadPairs -a {input.gtf} -o {output} {input.bam} &> {log}"


rule merge_counts:
    input:
        expand("results/counts/{sample}.featureCounts.tsv", sample=SAMPLES),
    output:
        "results/counts/merged_counts.tsv",
    log:
        "logs/merge_counts.log",
    conda:
        "../envs/python.yaml"
    script:
        "../scripts/merge_counts.py"
