import filters from "./src/_11ty/filters.js";

export default function (eleventyConfig) {
  for (const [name, fn] of Object.entries(filters)) {
    eleventyConfig.addFilter(name, fn);
  }
  eleventyConfig.addPassthroughCopy("src/img");
  return { dir: { input: "src", output: "_site" } };
}
