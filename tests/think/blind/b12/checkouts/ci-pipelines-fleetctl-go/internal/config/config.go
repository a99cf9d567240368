package config

import "gopkg.in/yaml.v3"

type Config struct {
	Name   string `yaml:"name"`
	Region string `yaml:"region"`
}

func Load(b []byte) (*Config, error) {
	var c Config
	if err := yaml.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	if c.Region == "" {
		c.Region = "us-east-1"
	}
	return &c, nil
}
