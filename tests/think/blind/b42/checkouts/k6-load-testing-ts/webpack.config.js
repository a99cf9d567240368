const path = require('path');
const GlobEntries = require('webpack-glob-entries');

module.exports = {
  mode: 'production',
  entry: GlobEntries('./src/*.ts'),
  output: { path: path.join(__dirname, 'dist'), libraryTarget: 'commonjs', filename: '[name].js' },
  resolve: { extensions: ['.ts', '.js'] },
  module: { rules: [{ test: /\.ts$/, use: 'babel-loader', exclude: /node_modules/ }] },
  target: 'web',
  externals: /^(k6|https?\:\/\/)(\/.*)?/,
  optimization: { minimize: false },
};
