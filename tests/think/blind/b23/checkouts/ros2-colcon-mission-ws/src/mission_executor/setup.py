from setuptools import find_packages, setup

package_name = 'mission_executor'

setup(
    name=package_name,
    version='0.6.3',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Ops Robotics',
    maintainer_email='ops@example.com',
    description='Runs mission scripts as a sequence of Nav2 and dock actions',
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={'console_scripts': ['executor = mission_executor.executor_node:main']},
)
