package main

import (
	"fmt"

	"github.com/acme/fleetctl/internal/report"
	"github.com/spf13/cobra"
)

func newStatusCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show node status",
		RunE: func(cmd *cobra.Command, args []string) error {
			nodes, err := report.Collect(cmd.Context())
			if err != nil {
				return err
			}
			fmt.Fprint(cmd.OutOrStdout(), report.Table(nodes))
			return nil
		},
	}
}
